module runner;
// silly picks up every unittest block in the compiled modules.
