use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP qw(decode_json);
use Log::Tiny::JSON;

my $dir = tempdir(CLEANUP => 1);
my $log = Log::Tiny::JSON->new(path => "$dir/app.json", level_field => 'severity');
$log->info('started', { pid => 42 });

open my $fh, '<', "$dir/app.json" or die $!;
my $rec = decode_json(scalar <$fh>);
is $rec->{severity}, 'info', 'custom level field';
is $rec->{msg}, 'started', 'message';
is $rec->{pid}, 42, 'extra fields merged';

done_testing;
