# Sourced by plugin/bin/sb-hook and plugin/bin/sb-statusline (POSIX sh, builtins only): sets `data`
# to the data directory, resolved exactly as sbcore.paths.data_dir() does, or to nothing when it cannot
# be told without Python (no HOME), which sends the caller to Python.
data=
if [ -n "${SBCORE_DATA_DIR:-}" ]; then
    data=$SBCORE_DATA_DIR
elif [ -n "${CLAUDE_PLUGIN_DATA:-}" ]; then
    data=$CLAUDE_PLUGIN_DATA
else
    # `second-brain install` records the plugin's data directory in <config dir>/data-dir.
    if [ -n "${SBCORE_CONFIG_DIR:-}" ]; then
        pointer=$SBCORE_CONFIG_DIR/data-dir
    elif [ -n "${XDG_CONFIG_HOME:-}" ]; then
        pointer=$XDG_CONFIG_HOME/sbcore/data-dir
    else
        pointer=${HOME:-/nonexistent}/.config/sbcore/data-dir
    fi
    if [ -r "$pointer" ]; then
        IFS= read -r data <"$pointer" 2>/dev/null || true
        case $data in /*) ;; *) data= ;; esac
    fi
fi
if [ -n "$data" ]; then
    :
elif [ -n "${XDG_DATA_HOME:-}" ]; then
    data=$XDG_DATA_HOME/sbcore
elif [ -n "${HOME:-}" ]; then
    data=$HOME/.local/share/sbcore
fi
