      *----------------------------------------------------------------
      * EMPREC - employee master record (fixed 120 bytes)
      *----------------------------------------------------------------
       01  EMP-RECORD.
           05  EMP-ID                  PIC 9(6).
           05  EMP-NAME                PIC X(30).
           05  EMP-DEPT                PIC X(4).
           05  EMP-HOURLY-RATE         PIC 9(3)V99.
           05  EMP-HOURS-WORKED        PIC 9(3)V9.
           05  EMP-STATUS              PIC X.
               88  EMP-ACTIVE          VALUE 'A'.
               88  EMP-TERMINATED      VALUE 'T'.
           05  FILLER                  PIC X(70).
