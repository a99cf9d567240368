module tomlette;

public import tomlette.value;
public import tomlette.parser;
