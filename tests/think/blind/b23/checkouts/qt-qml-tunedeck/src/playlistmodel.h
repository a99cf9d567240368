#pragma once
#include <QAbstractListModel>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

struct Track { QUrl url; QString title; };

class PlaylistModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(int currentIndex READ currentIndex NOTIFY currentIndexChanged)
public:
    enum Roles { UrlRole = Qt::UserRole + 1, TitleRole };
    explicit PlaylistModel(QObject *parent = nullptr);
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Q_INVOKABLE void appendTrack(const QUrl &url);
    Q_INVOKABLE void removeAt(int row);
    int currentIndex() const { return m_currentIndex; }
signals:
    void currentIndexChanged();
private:
    QList<Track> m_tracks;
    int m_currentIndex = -1;
};
