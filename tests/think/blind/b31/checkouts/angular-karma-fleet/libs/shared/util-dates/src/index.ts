export * from './lib/format-eta';
