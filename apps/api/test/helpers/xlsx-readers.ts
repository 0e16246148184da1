import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { XmlDocument } from 'libxml2-wasm';
import readXlsxFile from 'read-excel-file/node';

/**
 * Three independent ways to open a workbook, for tests of what the exports write:
 * - exceljs, the library that writes them (its reader parses with saxes, strict XML 1.0);
 * - read-excel-file, another maintained reader with its own unzip and XML parser (saxen). Its
 *   parser lets through characters XML 1.0 forbids (U+FFFE, U+FFFF), so on its own it would not
 *   notice a broken file;
 * - libxml2 (libxml2-wasm), the parser LibreOffice reads OOXML with: every XML part must be
 *   well-formed XML 1.0, as a strict consumer requires.
 */

export type Rows = unknown[][];

/** The rows of the only worksheet as exceljs reads them, column A first. */
export async function readWithExcelJS(body: Buffer): Promise<{ rows: Rows; types: number[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  if (workbook.worksheets.length !== 1) {
    throw new Error(`expected one worksheet, found ${workbook.worksheets.length}`);
  }
  const rows: Rows = [];
  const types: number[][] = [];
  workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    const cells: ExcelJS.Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => cells.push(cell));
    rows.push(cells.map((cell) => cell.value));
    types.push(cells.map((cell) => cell.type));
  });
  return { rows, types };
}

/** The rows of the only worksheet as read-excel-file reads them (strings untrimmed). */
export async function readWithReadExcelFile(body: Buffer): Promise<Rows> {
  const sheets = await readXlsxFile(body, { trim: false });
  if (sheets.length !== 1) throw new Error(`expected one worksheet, found ${sheets.length}`);
  return sheets[0]!.data as Rows;
}

const SPREADSHEET_NS = { x: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main' };

/**
 * Parses every XML part of the workbook with libxml2 from its raw bytes. Returns the parts that
 * are not well-formed XML 1.0, with libxml2's reason, and how many formula (<f>) elements the
 * worksheets hold.
 */
export function checkXmlParts(body: Buffer): {
  parts: string[];
  malformed: Array<{ part: string; error: string }>;
  formulas: number;
} {
  const files = unzipSync(new Uint8Array(body));
  const parts = Object.keys(files).filter((name) => /\.(xml|rels)$/.test(name));
  const malformed: Array<{ part: string; error: string }> = [];
  let formulas = 0;
  for (const part of parts) {
    let doc: XmlDocument | undefined;
    try {
      doc = XmlDocument.fromBuffer(files[part]!);
      if (part.startsWith('xl/worksheets/')) formulas += doc.find('//x:f', SPREADSHEET_NS).length;
    } catch (error) {
      malformed.push({
        part,
        error: error instanceof Error ? error.message.trim() : String(error),
      });
    } finally {
      doc?.dispose();
    }
  }
  return { parts, malformed, formulas };
}
