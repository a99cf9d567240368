Mox.defmock(Kiosk.BacklightMock, for: Kiosk.Backlight)
Application.put_env(:kiosk, :backlight, Kiosk.BacklightMock)
ExUnit.start()
