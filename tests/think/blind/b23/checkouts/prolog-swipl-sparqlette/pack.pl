name(sparqlette).
version('1.4.0').
title('Small SPARQL query builder for SWI-Prolog').
requires(semweb).
