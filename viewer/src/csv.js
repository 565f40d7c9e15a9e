// SPDX-License-Identifier: Apache-2.0
// CSV tables of a cosrod output directory ([manual: output reference]): a header row, then one
// row per output time and item.  Numeric columns become Float64Arrays; a
// column with text (contacts.csv `state`) stays an array of strings.

export class ViewerDataError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ViewerDataError';
  }
}

// Parse `text` (the contents of file `name`) into {name, header, n, cols}.
// A row with the wrong number of fields or a non-number where numbers are
// expected throws ViewerDataError naming the file and line; a last line cut
// in the middle (a file truncated while copied) is reported the same way.
export function parseCSV(text, name) {
  if (typeof text !== 'string' || text.length === 0) throw new ViewerDataError(`${name}: the file is empty`);
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const header = lines[0].replace(/\r$/, '').split(',').map((h) => h.trim());
  if (header.length < 2) throw new ViewerDataError(`${name}: line 1: no CSV header row`);
  const n = lines.length - 1;
  const raw = header.map(() => new Array(n));
  const numeric = header.map(() => true);
  const endsWithNewline = text.endsWith('\n');
  for (let i = 0; i < n; i++) {
    const f = lines[i + 1].replace(/\r$/, '').split(',');
    if (f.length !== header.length) {
      const last = i === n - 1 && !endsWithNewline;
      throw new ViewerDataError(
        `${name}: line ${i + 2}: expected ${header.length} fields (${header.join(',')}), found ${f.length}` +
          (last ? ' — the file ends in the middle of a row (truncated?)' : ''));
    }
    for (let k = 0; k < f.length; k++) raw[k][i] = f[k];
  }
  const cols = {};
  header.forEach((h, k) => {
    const a = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = raw[k][i] === '' ? NaN : Number(raw[k][i]);
      if (Number.isNaN(v) && raw[k][i] !== 'nan' && raw[k][i] !== 'NaN' && raw[k][i] !== '') {
        numeric[k] = false;
        break;
      }
      a[i] = v;
    }
    cols[h] = numeric[k] ? a : raw[k];
  });
  if (!endsWithNewline && n > 0) {
    // The last row has all its fields but no newline: a number may be cut.
    // cosrod writes every row with '\n', so treat it as truncated.
    throw new ViewerDataError(`${name}: line ${n + 1}: the file ends without a newline (truncated?)`);
  }
  return { name, header, n, cols };
}

// Check that table `tab` has the columns `need`; else a readable error.
export function requireColumns(tab, need) {
  const missing = need.filter((c) => !(c in tab.cols));
  if (missing.length)
    throw new ViewerDataError(`${tab.name}: missing column(s) ${missing.join(', ')} (header: ${tab.header.join(',')})`);
}
