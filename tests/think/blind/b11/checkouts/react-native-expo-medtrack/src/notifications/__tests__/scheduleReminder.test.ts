import * as Notifications from 'expo-notifications';
import { scheduleReminder } from '../scheduleReminder';

jest.mock('expo-notifications', () => ({ scheduleNotificationAsync: jest.fn().mockResolvedValue('notif-1') }));

it('schedules a one-off reminder at the given date', async () => {
  const at = new Date('2025-01-01T08:00:00Z');
  await expect(scheduleReminder({ title: 'Metformin', body: '500mg', at })).resolves.toBe('notif-1');
  expect(Notifications.scheduleNotificationAsync).toHaveBeenCalledWith(
    expect.objectContaining({ trigger: { date: at } }),
  );
});
