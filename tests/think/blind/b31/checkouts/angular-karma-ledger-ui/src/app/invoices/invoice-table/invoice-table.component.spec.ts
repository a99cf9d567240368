import { ComponentFixture, TestBed } from '@angular/core/testing';
import { LOCALE_ID } from '@angular/core';
import { registerLocaleData } from '@angular/common';
import localeDe from '@angular/common/locales/de';
import { InvoiceTableComponent } from './invoice-table.component';

registerLocaleData(localeDe);

describe('InvoiceTableComponent', () => {
  let fixture: ComponentFixture<InvoiceTableComponent>;

  beforeEach(async () => {
    await TestBed.configureTestingModule({
      imports: [InvoiceTableComponent],
      providers: [{ provide: LOCALE_ID, useValue: 'de-DE' }],
    }).compileComponents();
    fixture = TestBed.createComponent(InvoiceTableComponent);
  });

  it('renders one row per invoice', () => {
    fixture.componentInstance.invoices = [
      { number: 'R-1', customer: 'ACME', net: 100, vatRate: 0.19, gross: 119 },
    ];
    fixture.detectChanges();
    expect(fixture.nativeElement.querySelectorAll('tr.mat-mdc-row').length).toBe(1);
  });
});
