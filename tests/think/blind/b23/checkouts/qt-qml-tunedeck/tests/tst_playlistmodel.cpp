#include <QtTest>
#include "playlistmodel.h"

class tst_PlaylistModel : public QObject
{
    Q_OBJECT
private slots:
    void appendTrack()
    {
        PlaylistModel model;
        model.appendTrack(QUrl::fromLocalFile("/music/a.flac"));
        QCOMPARE(model.rowCount(), 1);
    }
    void removeRows()
    {
        PlaylistModel model;
        model.appendTrack(QUrl::fromLocalFile("/music/a.flac"));
        model.appendTrack(QUrl::fromLocalFile("/music/b.flac"));
        model.removeAt(0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0), PlaylistModel::UrlRole).toUrl().fileName(), QStringLiteral("b.flac"));
    }
};

QTEST_MAIN(tst_PlaylistModel)
#include "tst_playlistmodel.moc"
