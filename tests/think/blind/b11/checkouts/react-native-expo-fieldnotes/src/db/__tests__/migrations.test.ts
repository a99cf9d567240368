import { migrate } from '../migrations';

it('runs all migrations on an empty db', async () => {
  const db = await openTestDb();
  await migrate(db);
  expect(await db.getFirstAsync('PRAGMA user_version')).toEqual({ user_version: 7 });
});
