import QtQuick
import QtTest

TestCase {
    name: "SettingsPage"
    function test_brightnessSliderRange() {
        compare(0.0 <= 0.8 && 0.8 <= 1.0, true)
    }
}
