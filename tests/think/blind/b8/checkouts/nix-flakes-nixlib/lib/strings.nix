{ lib }:
rec {
  toSnakeCase = s: lib.toLower (lib.concatStringsSep "_" (splitWords s));
  splitWords = s: builtins.filter (w: w != "" && !builtins.isList w) (builtins.split "[^A-Za-z0-9]+|(?=[A-Z])" s);
}
