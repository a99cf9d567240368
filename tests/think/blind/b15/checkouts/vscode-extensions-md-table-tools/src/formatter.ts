export function formatTable(text: string): string {
	const rows = parseRows(text);
	const widths = columnWidths(rows);
	return rows.map(r => renderRow(r, widths)).join('\n');
}
