import unittest
import tz


class TestTz(unittest.TestCase):
    def test_winter_offset(self):
        # 2024-01-15 12:00:00 UTC -> 13:00 CET
        t = tz.local_time(1705320000)
        self.assertEqual(t[3], 13)


if __name__ == "__main__":
    unittest.main()
