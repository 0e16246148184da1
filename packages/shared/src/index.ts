export * from './messages.js';
export * from './task-progress.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './schemas/user.js';
export * from './schemas/task.js';
export * from './schemas/dashboard.js';
export * from './schemas/error.js';
