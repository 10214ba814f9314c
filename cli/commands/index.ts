import type { Command } from 'commander';
import { registerCloneCommand } from './clone';
import { registerDevCommands } from './dev';
import { registerJobCommands } from './jobs';
import { registerHealthCommand } from './health';
import { registerVersionCommand } from './version';
import { registerQuickstartCommand } from './quickstart';
import { registerDemoCommands } from './demo';
import { registerRollbackCommand } from './rollback';
import { registerTemplatesCommand } from './templates';
import { registerDqCommand } from './dq';
import { registerGovernanceCommands } from './governance';
import { registerContractCommands } from './contracts';
import { registerScheduleCommands } from './schedules';
import { registerAnalysisCommands } from './analysis';
import { registerMdmCommand } from './mdm';
import { registerStorageCommands } from './storage';
import { registerConvertCommand } from './convert';
import { registerSyncCommands } from './sync';
import { registerTargetCommands } from './targets';
import { registerWarehouseCommands } from './warehouses';
import { registerFinopsCommands } from './finops';
import { registerBudgetCommands } from './budgets';
import { registerRecommendationCommands } from './recommendations';
import { registerCopqCommands } from './copq';
import { registerFanoutCommands } from './fanout';
import { registerStreamCommands } from './streams';
import { registerWorkbenchCommands } from './workbench';
import { registerDltCommands } from './dlt';
import { registerGeneratorCommands } from './generators';
import { registerAiCommands } from './ai';
import { registerCaptureCommands } from './capture';
import { registerAutomationCommands } from './automation';
import { registerPipelineCommands } from './pipeline';
import { registerNlRuleCommands } from './nl-rules';
import { registerJobCloneCommands } from './job-clone';
import { registerIacCommands, registerStreamingGeneratorCommand } from './generators-iac';
import { registerComplianceCommands } from './compliance';
import { registerAuthCommands } from './auth';
import { registerWebCommand } from './web';
import { registerTableCommands } from './tables';

/**
 * Every subcommand of `lakeward`. A capability adds its `register…(program)` function here; commands that
 * talk to the API use `withApiOptions` and `apiClient` from cli/http.ts for --url, --api-key and --json.
 */
export const commandRegistrars: ((program: Command) => void)[] = [
  registerQuickstartCommand,
  registerDevCommands,
  registerWebCommand,
  registerTableCommands,
  registerDemoCommands,
  registerCloneCommand,
  registerJobCommands,
  registerHealthCommand,
  registerVersionCommand,
  registerTemplatesCommand,
  registerRollbackCommand,
  registerDqCommand,
  registerGovernanceCommands,
  registerContractCommands,
  registerScheduleCommands,
  registerAnalysisCommands,
  registerMdmCommand,
  registerStorageCommands,
  registerConvertCommand,
  registerSyncCommands,
  registerTargetCommands,
  registerWarehouseCommands,
  registerFinopsCommands,
  registerBudgetCommands,
  registerRecommendationCommands,
  registerCopqCommands,
  registerFanoutCommands,
  registerStreamCommands,
  registerWorkbenchCommands,
  registerDltCommands,
  registerGeneratorCommands,
  registerAiCommands,
  registerCaptureCommands,
  registerAutomationCommands,
  registerPipelineCommands,
  registerNlRuleCommands,
  registerJobCloneCommands,
  registerIacCommands,
  registerStreamingGeneratorCommand,
  registerComplianceCommands,
  registerAuthCommands,
];

export function registerCommands(program: Command): void {
  for (const register of commandRegistrars) register(program);
}
