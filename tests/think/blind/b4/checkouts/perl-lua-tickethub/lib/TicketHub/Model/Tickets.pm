package TicketHub::Model::Tickets;
use Mojo::Base -base, -signatures;

has 'pg';

sub list ($self, %args) {
  my %where;
  $where{status} = $args{status} if defined $args{status};
  return $self->pg->db->select('tickets', '*', \%where,
    {order_by => {-desc => 'created_at'}})->hashes->to_array;
}

sub find ($self, $id) {
  return $self->pg->db->select('tickets', '*', {id => $id})->hash;
}

1;
