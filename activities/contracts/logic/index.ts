export * from './document';
export * from './odcs-schema';
export * from './types';
export * from './generate';
export * from './validate';
