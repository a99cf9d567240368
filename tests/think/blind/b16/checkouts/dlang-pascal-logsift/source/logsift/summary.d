module logsift.summary;

import std.stdio : File;
import logsift.filter : Record, Level;

struct Summary { size_t[Level] counts; size_t total; }

Summary summarise(R)(R recs)
{
    Summary s;
    foreach (r; recs) { s.counts[r.level]++; s.total++; }
    return s;
}

void writeSummary(File f, const Summary s)
{
    foreach (lvl, n; s.counts) f.writefln("%-5s %d", lvl, n);
    f.writefln("total %d", s.total);
}

unittest
{
    import logsift.filter : Record, Level;
    auto s = summarise([Record(Level.info, ""), Record(Level.warn, ""), Record(Level.info, "")]);
    assert(s.total == 3 && s.counts[Level.info] == 2);
}
