import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { defineEndpoint } from '../endpoint-deps.js';
import { binary } from '../openapi/responses.js';
import { XLSX_TYPE } from './service.js';

const attachment = z.object({
  'Content-Disposition': z
    .string()
    .regex(/^attachment; filename="[\w.-]+\.xlsx"$/)
    .meta({ description: 'Saves the answer as the named file' }),
});

/** A spreadsheet download, saved as `fileName`. */
const workbook = (fileName: string): ZodOpenApiResponseObject => ({
  description: `The workbook \`${fileName}\`, as an attachment.`,
  headers: attachment,
  content: { [XLSX_TYPE]: binary(XLSX_TYPE) },
});

export const reportEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/reports/export/tasks',
    operationId: 'exportTasksReport',
    tags: ['Reports'],
    summary: 'Every task as a spreadsheet',
    access: 'admin',
    responses: { 200: workbook('tasks_report.xlsx') },
    handler: async ({ services, res }) => {
      await services.reports.sendTasksReport(res);
      return undefined;
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/reports/export/users',
    operationId: 'exportUsersReport',
    tags: ['Reports'],
    summary: 'Every member with their task counts as a spreadsheet',
    access: 'admin',
    responses: { 200: workbook('user_details.xlsx') },
    handler: async ({ services, res }) => {
      await services.reports.sendUsersReport(res);
      return undefined;
    },
  }),
];
