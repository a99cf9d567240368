#include <QtTest>
#include <QSettings>
#include <QTemporaryDir>
#include "settingsstore.h"

class tst_SettingsStore : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    }
    void defaultsWhenEmpty()
    {
        SettingsStore store;
        store.load();
        QCOMPARE(store.brightness(), 0.8);
    }
    void roundTrip()
    {
        SettingsStore a;
        a.setBrightness(0.35);
        a.save();
        SettingsStore b;
        b.load();
        QCOMPARE(b.brightness(), 0.35);
    }
private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(tst_SettingsStore)
#include "tst_settingsstore.moc"
