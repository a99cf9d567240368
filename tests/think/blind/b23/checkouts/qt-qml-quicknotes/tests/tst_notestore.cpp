#include <QtTest>
#include "notestore.h"

class tst_NoteStore : public QObject
{
    Q_OBJECT
private slots:
    void addNote()
    {
        NoteStore store;
        QVERIFY(store.addNote("Groceries", "milk"));
        QCOMPARE(store.count(), 1);
    }
    void duplicateRejected()
    {
        NoteStore store;
        QVERIFY(store.addNote("Groceries", "milk"));
        QVERIFY(!store.addNote("Groceries", "eggs"));
    }
    void removeNote()
    {
        NoteStore store;
        store.addNote("A", "");
        QVERIFY(store.removeNote("A"));
        QCOMPARE(store.count(), 0);
    }
};

QTEST_APPLESS_MAIN(tst_NoteStore)
#include "tst_notestore.moc"
