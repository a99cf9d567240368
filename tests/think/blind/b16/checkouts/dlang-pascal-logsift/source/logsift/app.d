module logsift.app;

import std.getopt;
import std.stdio;
import logsift.filter;
import logsift.summary;

int main(string[] args)
{
    string level = "info";
    bool countsOnly;
    auto opts = getopt(args,
        "level|l", "minimum level to keep", &level,
        "count|c", "print per-level counts only", &countsOnly);
    if (opts.helpWanted)
    {
        defaultGetoptPrinter("logsift [options] FILE...", opts.options);
        return 0;
    }
    auto recs = readRecords(args[1 .. $]).filterLevel(parseLevel(level));
    if (countsOnly)
        writeSummary(stdout, summarise(recs));
    else
        foreach (r; recs) writeln(r.raw);
    return 0;
}
