package Log::Tiny::JSON;
use strict;
use warnings;
use Carp qw(croak carp);
use JSON::PP ();
use IO::Handle;
use Time::HiRes ();

our $VERSION = '0.08';

my $JSON = JSON::PP->new->canonical->utf8;

sub new {
    my ($class, %opt) = @_;
    if (exists $opt{file}) {
        carp "Log::Tiny::JSON: 'file' is deprecated, use 'path'";
        $opt{path} //= delete $opt{file};
    }
    croak "path required" unless defined $opt{path};
    open my $fh, '>>', $opt{path} or croak "open $opt{path}: $!";
    $fh->autoflush(1);
    return bless {
        fh          => $fh,
        level_field => $opt{level_field} // 'level',
    }, $class;
}

for my $level (qw(debug info warn error)) {
    no strict 'refs';
    *{$level} = sub { shift->_log($level, @_) };
}

sub _log {
    my ($self, $level, $msg, $extra) = @_;
    my %rec = (%{ $extra // {} }, msg => $msg, ts => Time::HiRes::time());
    $rec{ $self->{level_field} } = $level;
    print { $self->{fh} } $JSON->encode(\%rec), "\n";
    return;
}

1;
__END__

=head1 NAME

Log::Tiny::JSON - append one JSON object per line to a log file

=head1 SYNOPSIS

    use Log::Tiny::JSON;

    my $log = Log::Tiny::JSON->new(file => '/var/log/app.json');
    $log->info('started', { pid => $$ });

=head1 CONSTRUCTOR

=head2 new

    my $log = Log::Tiny::JSON->new(%options);

Options:

=over 4

=item path

Where to append log lines. Required.

=back

=head1 METHODS

=head2 debug, info, warn, error

    $log->info($message, \%extra);

Writes one line with C<msg>, C<ts>, the level and any extra fields.

=cut
