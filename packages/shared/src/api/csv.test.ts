import { describe, expect, it } from 'vitest';
import { csvCell, csvFile } from './csv';

describe('CSV', () => {
  it('quotes what needs quoting and defuses formula-like text, not numbers', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('joins rows with CRLF and ends with one', () => {
    expect(
      csvFile([
        ['a', 1],
        ['b', 2],
      ]),
    ).toBe('a,1\r\nb,2\r\n');
  });
});
