export * from './enums.ts';
export * from './errors.ts';
export * from './money.ts';
export * from './routes.ts';
export * from './schemas/common.ts';
export * from './schemas/category.ts';
export * from './common-passwords.ts';
export * from './schemas/account.ts';
