import { createOfflinePlanner } from '../offline-planner/index.ts';
import { drive } from './offline-world.ts';
import { teaWorld, TEA } from './offline-pages.ts';
const r = await drive(createOfflinePlanner(), teaWorld(), process.argv[2]!.replace('TEA', TEA), process.argv[3] ? { startUrl: TEA + process.argv[3] } : {});
console.log(r.toolCalls, r.chat);
