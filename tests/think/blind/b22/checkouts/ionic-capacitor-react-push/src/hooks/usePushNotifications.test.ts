import { renderHook, waitFor } from '@testing-library/react';
import { PushNotifications } from '@capacitor/push-notifications';
import { vi } from 'vitest';
import { usePushNotifications } from './usePushNotifications';

vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: {
    requestPermissions: vi.fn().mockResolvedValue({ receive: 'granted' }),
    register: vi.fn().mockResolvedValue(undefined),
    addListener: vi.fn().mockResolvedValue({ remove: vi.fn() }),
  },
}));

describe('usePushNotifications', () => {
  it('registers when permission is granted', async () => {
    renderHook(() => usePushNotifications());
    await waitFor(() => expect(PushNotifications.register).toHaveBeenCalled());
  });
});
