export const total = (a: number, b: number) => a + b;
