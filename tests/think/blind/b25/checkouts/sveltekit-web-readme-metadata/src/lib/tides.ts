export interface TideEvent {
	kind: 'high' | 'low';
	at: Date;
	heightM: number;
}

export function nextEvent(events: TideEvent[], now: Date): TideEvent | undefined {
	return events.find((e) => e.at.getTime() > now.getTime());
}
