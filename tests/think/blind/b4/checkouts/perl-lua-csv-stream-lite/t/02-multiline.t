use strict;
use warnings;
use Test::More;
use File::Temp qw(tempfile);
use CSV::Stream::Lite;

my ($fh, $path) = tempfile(UNLINK => 1);
binmode $fh, ':encoding(UTF-8)';
print $fh qq{id,note\n1,"line one\nline two"\n2,plain\n};
close $fh;

my $csv = CSV::Stream::Lite->new(path => $path);
$csv->next_row;
is_deeply $csv->next_row, [1, "line one\nline two"], 'quoted newline kept in field';
is_deeply $csv->next_row, [2, 'plain'], 'row after multiline row';

done_testing;
