export { createOfflinePlanner, OFFLINE_PLANNER_MODEL, type OfflinePlannerOptions } from './offline-planner.ts';
export { planNextStep, MAX_STEPS_PER_REQUEST, type Decision, type PlannedStep } from './next-step.ts';
export { parseRequest, type RequestIntent, type PlannedAction, type AnswerKind } from './request-intent.ts';
export { ANSWER_PREFIX, CAPABILITIES } from './answers.ts';
export { TOOL as OFFLINE_PLANNER_TOOLS } from './plan-steps.ts';
