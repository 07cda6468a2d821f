#!/usr/bin/env node
// `npx mimo …`: runs the TypeScript sources through tsx's loader (as `npm start` does).
import { register } from 'tsx/esm/api';

register();
await import('../runtime/cli/mimo-cli.ts');
