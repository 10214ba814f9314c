import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes Lakeward registers on the dev server (and documents for real clusters). */
export const JOB_TYPE = defineSearchAttributeKey('LakewardJobType', SearchAttributeType.KEYWORD);
export const SOURCE_CATALOG = defineSearchAttributeKey('LakewardSourceCatalog', SearchAttributeType.KEYWORD);
export const DESTINATION_CATALOG = defineSearchAttributeKey('LakewardDestinationCatalog', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [JOB_TYPE, SOURCE_CATALOG, DESTINATION_CATALOG];
