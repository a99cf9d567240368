package CSV::Stream::Lite;
use strict;
use warnings;

our $VERSION = '0.03';

sub new {
    my ($class, %opt) = @_;
    open my $fh, '<:encoding(UTF-8)', $opt{path} or die "open $opt{path}: $!";
    return bless { fh => $fh, sep => $opt{sep} // ',' }, $class;
}

sub next_row {
    my ($self) = @_;
    my $line = readline $self->{fh};
    return unless defined $line;
    chomp $line;
    return [ _split($line, $self->{sep}) ];
}

sub _split {
    my ($line, $sep) = @_;
    my @f;
    while ($line =~ /\G(?:"((?:[^"]|"")*)"|([^\Q$sep\E]*))(?:\Q$sep\E|$)/gc) {
        my $v = defined $1 ? $1 =~ s/""/"/gr : $2;
        push @f, $v;
        last if pos($line) >= length $line;
    }
    return @f;
}

1;
