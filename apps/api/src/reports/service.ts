import type { Response } from 'express';
import ExcelJS from 'exceljs';
import type { TaskService } from '../tasks/service.js';
import type { UserService } from '../users/service.js';
import { spreadsheetText } from './spreadsheet-text.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DATE = { numFmt: 'yyyy-mm-dd' };

interface Sheet {
  filename: string;
  sheetName: string;
  columns: Partial<ExcelJS.Column>[];
  rows: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>;
}

/** The row's cells by column key: texts as a cell can hold them (spreadsheetText), others as they are. */
function cellValues(row: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const cells: Record<string, unknown> = {};
  for (const key of keys) {
    const value = row[key];
    cells[key] = typeof value === 'string' ? spreadsheetText(value) : value;
  }
  return cells;
}

/**
 * Streams a one-sheet workbook with a bold header row, committing each row as it is written.
 * Every text goes in as a string cell, never a formula, whatever it starts with ('=', '+', '@').
 */
async function sendWorkbook(res: Response, { filename, sheetName, columns, rows }: Sheet) {
  res.status(200);
  res.set({
    'Content-Type': XLSX_TYPE,
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns;
  sheet.getRow(1).font = { bold: true };
  const keys = columns.map((column) => column.key!);
  for await (const row of rows) sheet.addRow(cellValues(row, keys)).commit();
  sheet.commit();
  await workbook.commit();
}

async function* userReportRows(users: UserService) {
  for await (const user of users.exportRows()) {
    yield { ...user, total: user.pendingTasks + user.inProgressTasks + user.completedTasks };
  }
}

async function* taskReportRows(tasks: TaskService) {
  for await (const row of tasks.exportRows()) {
    yield {
      ...row,
      progress: `${row.progress}%`,
      dueDate: new Date(row.dueDate),
      createdAt: new Date(row.createdAt),
    };
  }
}

/**
 * The two Excel exports, streamed to the response as they are read (keyset batches), so a
 * report of 100,000 tasks never sits in memory.
 */
export class ReportService {
  constructor(
    private readonly tasks: TaskService,
    private readonly users: UserService,
  ) {}

  async sendTasksReport(res: Response): Promise<void> {
    await sendWorkbook(res, {
      filename: 'tasks_report.xlsx',
      sheetName: 'Tasks Report',
      columns: [
        { header: 'Task ID', key: 'id', width: 38 },
        { header: 'Title', key: 'title', width: 30 },
        { header: 'Description', key: 'description', width: 50 },
        { header: 'Priority', key: 'priority', width: 10 },
        { header: 'Status', key: 'status', width: 14 },
        { header: 'Progress', key: 'progress', width: 10 },
        { header: 'Due Date', key: 'dueDate', width: 14, style: DATE },
        { header: 'Created On', key: 'createdAt', width: 14, style: DATE },
        { header: 'Assigned To', key: 'assignedTo', width: 40 },
      ],
      rows: taskReportRows(this.tasks),
    });
  }

  async sendUsersReport(res: Response): Promise<void> {
    await sendWorkbook(res, {
      filename: 'user_details.xlsx',
      sheetName: 'User Task Report',
      columns: [
        { header: 'Name', key: 'name', width: 25 },
        { header: 'Email', key: 'email', width: 35 },
        { header: 'Role', key: 'role', width: 10 },
        { header: 'Total Assigned Tasks', key: 'total', width: 22 },
        { header: 'Pending', key: 'pendingTasks', width: 10 },
        { header: 'In Progress', key: 'inProgressTasks', width: 12 },
        { header: 'Completed', key: 'completedTasks', width: 12 },
      ],
      rows: userReportRows(this.users),
    });
  }
}
