package TicketHub::Controller::Tickets;
use Mojo::Base 'Mojolicious::Controller', -signatures;

sub list ($self) {
  my $status  = $self->param('status');
  my $tickets = $self->tickets->list(status => $status);
  $self->render(json => $tickets);
}

sub show ($self) {
  my $ticket = $self->tickets->find($self->param('id'))
    or return $self->reply->not_found;
  $self->render(json => $ticket);
}

1;
