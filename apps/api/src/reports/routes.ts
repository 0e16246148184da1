import { Router, type RequestHandler, type Response } from 'express';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { listMembersWithTaskCounts } from '../users/repository.js';
import { streamTaskReportRows } from './repository.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function startWorkbook(res: Response, filename: string) {
  res.status(200);
  res.set({
    'Content-Type': XLSX_TYPE,
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
  return new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true });
}

export function reportRoutes(deps: {
  db: Kysely<Database>;
  requireAuth: RequestHandler;
  requireAdmin: RequestHandler;
}): Router {
  const router = Router();
  router.use(deps.requireAuth, deps.requireAdmin);

  router.get('/export/tasks', async (_req, res) => {
    const workbook = startWorkbook(res, 'tasks_report.xlsx');
    const sheet = workbook.addWorksheet('Tasks Report');
    sheet.columns = [
      { header: 'Task ID', key: 'id', width: 38 },
      { header: 'Title', key: 'title', width: 30 },
      { header: 'Description', key: 'description', width: 50 },
      { header: 'Priority', key: 'priority', width: 10 },
      { header: 'Status', key: 'status', width: 14 },
      { header: 'Progress', key: 'progress', width: 10 },
      { header: 'Due Date', key: 'dueDate', width: 14, style: { numFmt: 'yyyy-mm-dd' } },
      { header: 'Created On', key: 'createdAt', width: 14, style: { numFmt: 'yyyy-mm-dd' } },
      { header: 'Assigned To', key: 'assignedTo', width: 40 },
    ];
    sheet.getRow(1).font = { bold: true };
    for await (const row of streamTaskReportRows(deps.db)) {
      sheet
        .addRow({
          ...row,
          progress: `${row.progress}%`,
          dueDate: new Date(row.dueDate),
          createdAt: new Date(row.createdAt),
        })
        .commit();
    }
    sheet.commit();
    await workbook.commit();
  });

  router.get('/export/users', async (_req, res) => {
    const users = await listMembersWithTaskCounts(deps.db);
    const workbook = startWorkbook(res, 'user_details.xlsx');
    const sheet = workbook.addWorksheet('User Task Report');
    sheet.columns = [
      { header: 'Name', key: 'name', width: 25 },
      { header: 'Email', key: 'email', width: 35 },
      { header: 'Role', key: 'role', width: 10 },
      { header: 'Total Assigned Tasks', key: 'total', width: 22 },
      { header: 'Pending', key: 'pendingTasks', width: 10 },
      { header: 'In Progress', key: 'inProgressTasks', width: 12 },
      { header: 'Completed', key: 'completedTasks', width: 12 },
    ];
    sheet.getRow(1).font = { bold: true };
    for (const user of users) {
      sheet
        .addRow({
          ...user,
          total: user.pendingTasks + user.inProgressTasks + user.completedTasks,
        })
        .commit();
    }
    sheet.commit();
    await workbook.commit();
  });

  return router;
}
