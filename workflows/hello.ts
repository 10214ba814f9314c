import { proxyActivities } from '@temporalio/workflow';
import type { createHelloActivities } from '../activities/hello';

const { greet } = proxyActivities<ReturnType<typeof createHelloActivities>>({ startToCloseTimeout: '10 seconds' });

/** A tiny workflow used by smoke tests and `lakeward health --deep` to prove the worker path end to end. */
export async function helloWorkflow(name: string): Promise<string> {
  return await greet(name);
}
