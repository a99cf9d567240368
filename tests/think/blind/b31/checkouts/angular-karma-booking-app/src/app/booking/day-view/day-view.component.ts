import { Component, inject } from '@angular/core';
import { AsyncPipe, NgFor } from '@angular/common';
import { Observable } from 'rxjs';
import { AvailabilityService } from '../../availability/availability.service';
import { Slot } from '../../availability/slot.model';

@Component({
  selector: 'app-day-view',
  standalone: true,
  imports: [NgFor, AsyncPipe],
  templateUrl: './day-view.component.html',
})
export class DayViewComponent {
  private readonly availability = inject(AvailabilityService);
  selectedDay = new Date();
  slots$!: Observable<Slot[]>;

  load(): void {
    this.slots$ = this.availability.getAvailability(this.selectedDay);
  }
}
