import { TestWorkflowEnvironment } from '@temporalio/testing';
import { executableSpec } from '../../workers/temporal-binary';
import { SEARCH_ATTRIBUTES } from '../../workflows/jobs/search-attributes';
import { ensurePythonOracles } from './python-oracles';

/**
 * One real Temporal dev server for the whole test run (the `temporal` CLI binary found by setup).
 * Test files connect to it through TEMPORAL_TEST_ADDRESS, each with its own task queue. First the Python test
 * oracles are made sure of (installed if missing), so `npm test` passes right after `npm run quickstart`.
 */
export default async function globalSetup(): Promise<void> {
  ensurePythonOracles();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: executableSpec('temporal'),
      searchAttributes: SEARCH_ATTRIBUTES,
      extraArgs: ['--dynamic-config-value', 'limit.maxIDLength=1000'],
    },
  });
  (globalThis as { __TEMPORAL_ENV__?: TestWorkflowEnvironment }).__TEMPORAL_ENV__ = env;
  process.env.TEMPORAL_TEST_ADDRESS = env.connection.options.address;
}
