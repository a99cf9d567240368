module summary_cli_test;

import logsift.summary;
import logsift.filter;

@("summary counts only kept levels")
unittest
{
    auto recs = [Record(Level.debug_, ""), Record(Level.error, "")];
    auto s = summarise(recs.filterLevel(Level.info));
    assert(s.total == 1);
}
