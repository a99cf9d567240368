export interface Line {
	sku: string;
	unitCents: number;
	qty: number;
}

export function subtotal(lines: Line[]): number {
	return lines.reduce((sum, l) => sum + l.unitCents * l.qty, 0);
}
