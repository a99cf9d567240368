import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

RowLayout {
    id: root
    required property PlaylistModel playlist

    ToolButton {
        id: shuffleButton
        icon.name: "media-playlist-shuffle"
    }
    ToolButton {
        icon.name: "media-skip-forward"
    }
}
