       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAYCALC.
      *----------------------------------------------------------------
      * Computes gross pay for one employee record.
      *----------------------------------------------------------------
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       COPY EMPREC.
       01  WS-GROSS-PAY                PIC 9(7)V99 VALUE ZERO.
       01  WS-REG-HOURS                PIC 9(3)V9  VALUE ZERO.
       PROCEDURE DIVISION.
       0000-MAIN.
           PERFORM 1000-CALC-GROSS
           GOBACK.
       1000-CALC-GROSS.
           MOVE EMP-HOURS-WORKED TO WS-REG-HOURS
           COMPUTE WS-GROSS-PAY ROUNDED =
               WS-REG-HOURS * EMP-HOURLY-RATE.
