import * as Notifications from 'expo-notifications';

export type ReminderOptions = {
  title: string;
  body: string;
  at: Date;
};

export async function scheduleReminder({ title, body, at }: ReminderOptions): Promise<string> {
  return Notifications.scheduleNotificationAsync({
    content: { title, body, sound: true },
    trigger: { date: at },
  });
}
