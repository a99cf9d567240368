use strict;
use warnings;
use Test::More;
use File::Temp qw(tempfile);
use CSV::Stream::Lite;

my ($fh, $path) = tempfile(UNLINK => 1);
binmode $fh, ':encoding(UTF-8)';
print $fh qq{a,b,c\n"x,y",z,\n"say ""hi""",,\n};
close $fh;

my $csv = CSV::Stream::Lite->new(path => $path);
is_deeply $csv->next_row, [qw(a b c)], 'simple row';
is_deeply $csv->next_row, ['x,y', 'z', ''], 'quoted comma';
is_deeply $csv->next_row, ['say "hi"', '', ''], 'escaped quote';
is $csv->next_row, undef, 'eof';

done_testing;
