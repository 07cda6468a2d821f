// runMachine: one MCP template run (seed 003 §4, §6, §8.6, §10).
//
//   queued --START--> running.stepping --all steps done--> succeeded | partial_success | failed
//   queued --CANCEL--> canceled;  running --CANCEL--> (running steps finish) --> canceled
//   running --RUN_TIMEOUT--> failed (RUN_TIMEOUT).   Terminal states are final.
//
// Steps run through the provided `runStep` actor, spawned as children `step-<index>`,
// at most `concurrency` at a time (the sliding window of 003 §8.6, computed by the
// RunManager as min(template concurrency, maxConcurrency, free tabs)). Cancel is
// cooperative (003 §4.4): the flag stops new steps, pending steps become skipped at
// once, running steps run to completion, then the run is canceled. On timeout running
// steps are marked failed (RUN_TIMEOUT) and stopped with the run (their AbortSignal
// fires), pending ones skipped.
import { assign, enqueueActions, fromPromise, setup, type AnyEventObject } from 'xstate';
import { ErrorCode } from '../spec/error-codes.ts';
import { maxRunTimeoutMs } from '../spec/other-timeouts.ts';
import { errorValue, toErrorValue, type ErrorValue } from '../spec/error-value.ts';
import type { RestoredEvent } from './restored-event.ts';
import {
  countSteps,
  decideRunOutcome,
  defaultPartialSuccessThreshold,
  type StepCounts,
  type StepStatus,
} from './run-outcome.ts';

export const runMachineId = 'run';

/** 003 §2 runtime profile `maxRunTimeoutMs`, used when the caller passes no timeout. */
export const defaultRunTimeoutMs = maxRunTimeoutMs;

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'partial_success' | 'canceled';

export interface RunStepSpec {
  stepId: string;
  input?: unknown;
}

export interface RunInput {
  runId: string;
  templateId: string;
  steps: RunStepSpec[];
  /** Sliding window size, at least 1 (default 1: steps in order). */
  concurrency?: number;
  supportsPartialSuccess?: boolean;
  partialSuccessThreshold?: number;
  /** Effective timeout, min(options.timeoutMs, template max, runtime max) (003 §10). */
  timeoutMs?: number;
}

export interface RunStepInput {
  runId: string;
  templateId: string;
  stepId: string;
  index: number;
  input: unknown;
}

export interface RunStep {
  stepId: string;
  input?: unknown;
  status: StepStatus;
  output?: unknown;
  error?: ErrorValue;
}

export type RunEvent = { type: 'START' } | { type: 'CANCEL' } | RestoredEvent;

export interface RunContext {
  runId: string;
  templateId: string;
  steps: RunStep[];
  concurrency: number;
  supportsPartialSuccess: boolean;
  partialSuccessThreshold: number;
  timeoutMs: number;
  cancelRequested: boolean;
  error: ErrorValue | null;
}

export interface RunOutput {
  runId: string;
  templateId: string;
  status: Exclude<RunStatus, 'queued' | 'running'>;
  steps: RunStep[];
  summary: StepCounts;
  error?: ErrorValue;
}

export function stepActorId(index: number): string {
  return `step-${index}`;
}

function stepIndexOf(actorId: unknown): number {
  const match = typeof actorId === 'string' ? /^step-(\d+)$/.exec(actorId) : null;
  return match ? Number(match[1]) : -1;
}

function updateStep(steps: RunStep[], index: number, patch: Partial<RunStep>): RunStep[] {
  return steps.map((step, i) => (i === index && step.status === 'running' ? { ...step, ...patch } : step));
}

function policyOf(context: RunContext) {
  return { supportsPartialSuccess: context.supportsPartialSuccess, threshold: context.partialSuccessThreshold };
}

function firstFailure(steps: RunStep[]): RunStep | undefined {
  return steps.find((step) => step.status === 'failed');
}

const finalOutput =
  (status: RunOutput['status']) =>
  ({ context }: { context: RunContext }): RunOutput => {
    const output: RunOutput = {
      runId: context.runId,
      templateId: context.templateId,
      status,
      steps: context.steps,
      summary: countSteps(context.steps),
    };
    if (context.error) output.error = context.error;
    return output;
  };

export const runMachine = setup({
  types: {} as {
    context: RunContext;
    events: RunEvent;
    input: RunInput;
    output: RunOutput;
  },
  actors: {
    runStep: fromPromise<unknown, RunStepInput>(async () => {
      throw errorValue(ErrorCode.INTERNAL, 'runStep is not provided');
    }),
  },
  actions: {
    fillWindow: enqueueActions(({ context, enqueue }) => {
      if (context.cancelRequested) return;
      let running = countSteps(context.steps).running;
      const steps = context.steps.slice();
      for (let index = 0; index < steps.length && running < context.concurrency; index += 1) {
        const step = steps[index]!;
        if (step.status !== 'pending') continue;
        steps[index] = { ...step, status: 'running' };
        running += 1;
        const input: RunStepInput = {
          runId: context.runId,
          templateId: context.templateId,
          stepId: step.stepId,
          index,
          input: step.input,
        };
        enqueue.spawnChild('runStep', { id: stepActorId(index), input });
      }
      enqueue.assign({ steps });
    }),
    recordStepSuccess: assign(({ context }, params: { actorId: unknown; output: unknown }) => ({
      steps: updateStep(context.steps, stepIndexOf(params.actorId), { status: 'succeeded', output: params.output }),
    })),
    recordStepFailure: assign(({ context }, params: { actorId: unknown; error: unknown }) => ({
      steps: updateStep(context.steps, stepIndexOf(params.actorId), {
        status: 'failed',
        error: toErrorValue(params.error, ErrorCode.EXECUTION_ERROR),
      }),
    })),
    requestCancel: assign({ cancelRequested: true }),
    skipPendingSteps: assign({
      steps: ({ context }) =>
        context.steps.map((step) => (step.status === 'pending' ? { ...step, status: 'skipped' as const } : step)),
    }),
    recordCanceled: assign({ error: errorValue(ErrorCode.RUN_CANCELED, 'the run was canceled') }),
    recordTimeout: assign(({ context }) => {
      const error = errorValue(ErrorCode.RUN_TIMEOUT, `the run exceeded ${context.timeoutMs} ms`, {
        details: { runId: context.runId },
      });
      const steps = context.steps.map((step): RunStep => {
        if (step.status === 'running') return { ...step, status: 'failed', error };
        if (step.status === 'pending') return { ...step, status: 'skipped' };
        return step;
      });
      return { steps, error };
    }),
    recordStepsFailed: assign(({ context }) => {
      const failed = firstFailure(context.steps);
      return {
        error: errorValue(ErrorCode.STEP_EXECUTION_FAILED, 'step failed', {
          details: {
            runId: context.runId,
            failedStep: failed?.stepId,
            stepErrorCode: failed?.error?.code,
          },
        }),
      };
    }),
  },
  guards: {
    canceledAndIdle: ({ context }) => context.cancelRequested && countSteps(context.steps).running === 0,
    allSucceeded: ({ context }) => decideRunOutcome(context.steps, policyOf(context)) === 'succeeded',
    partialSuccess: ({ context }) => decideRunOutcome(context.steps, policyOf(context)) === 'partial_success',
    stepsFailed: ({ context }) => decideRunOutcome(context.steps, policyOf(context)) === 'failed',
  },
  delays: {
    RUN_TIMEOUT: ({ context }) => context.timeoutMs,
  },
}).createMachine({
  id: runMachineId,
  context: ({ input }) => ({
    runId: input.runId,
    templateId: input.templateId,
    steps: input.steps.map((spec) => {
      const step: RunStep = { stepId: spec.stepId, status: 'pending' };
      if (spec.input !== undefined) step.input = spec.input;
      return step;
    }),
    concurrency:
      input.concurrency !== undefined && Number.isInteger(input.concurrency) && input.concurrency >= 1
        ? input.concurrency
        : 1,
    supportsPartialSuccess: input.supportsPartialSuccess === true,
    partialSuccessThreshold:
      input.partialSuccessThreshold !== undefined &&
      input.partialSuccessThreshold >= 0 &&
      input.partialSuccessThreshold <= 1
        ? input.partialSuccessThreshold
        : defaultPartialSuccessThreshold,
    timeoutMs: input.timeoutMs !== undefined && input.timeoutMs > 0 ? input.timeoutMs : defaultRunTimeoutMs,
    cancelRequested: false,
    error: null,
  }),
  initial: 'queued',
  states: {
    queued: {
      on: {
        START: { target: 'running' },
        CANCEL: { target: 'canceled', actions: ['requestCancel', 'skipPendingSteps'] },
      },
    },
    running: {
      entry: 'fillWindow',
      initial: 'stepping',
      on: {
        'xstate.done.actor.*': {
          actions: [
            {
              type: 'recordStepSuccess',
              params: ({ event }: { event: AnyEventObject }) => ({ actorId: event.actorId, output: event.output }),
            },
            'fillWindow',
          ],
        },
        'xstate.error.actor.*': {
          actions: [
            {
              type: 'recordStepFailure',
              params: ({ event }: { event: AnyEventObject }) => ({ actorId: event.actorId, error: event.error }),
            },
            'fillWindow',
          ],
        },
        CANCEL: { actions: ['requestCancel', 'skipPendingSteps'] },
      },
      always: [
        { guard: 'canceledAndIdle', target: 'canceled' },
        { guard: 'allSucceeded', target: 'succeeded' },
        { guard: 'partialSuccess', target: 'partial_success' },
        { guard: 'stepsFailed', target: 'failed', actions: 'recordStepsFailed' },
      ],
      states: {
        // Holds the run timer in a leaf, so RESTORED can re-arm it without re-entering
        // `running` (which would run fillWindow again).
        stepping: {
          on: { RESTORED: { target: 'stepping', reenter: true } },
          after: { RUN_TIMEOUT: { target: '#run.failed', actions: 'recordTimeout' } },
        },
      },
    },
    succeeded: { type: 'final', output: finalOutput('succeeded') },
    partial_success: { type: 'final', output: finalOutput('partial_success') },
    failed: { type: 'final', output: finalOutput('failed') },
    canceled: { type: 'final', entry: 'recordCanceled', output: finalOutput('canceled') },
  },
  output: ({ event }) => event.output as RunOutput,
});
