import { TestBed } from '@angular/core/testing';
import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { AvailabilityService } from './availability.service';

describe('AvailabilityService', () => {
  it('requests a single day', () => {
    TestBed.configureTestingModule({ providers: [provideHttpClient(), provideHttpClientTesting()] });
    const svc = TestBed.inject(AvailabilityService);
    const http = TestBed.inject(HttpTestingController);
    svc.getAvailability(new Date('2025-06-01')).subscribe();
    http.expectOne('/api/availability?day=2025-06-01').flush([]);
  });
});
