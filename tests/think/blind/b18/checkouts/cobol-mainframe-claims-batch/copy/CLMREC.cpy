      *----------------------------------------------------------------*
      * CLMREC  - CLAIM INPUT RECORD (LRECL 120)                        *
      *----------------------------------------------------------------*
       01  CLM-REC.
           05  CLM-ID                 PIC X(12).
           05  CLM-MEMBER-ID          PIC X(10).
           05  CLM-SVC-DATE           PIC 9(8).
           05  CLM-DIAG-CODE          PIC X(7).
           05  CLM-PROC-CODE          PIC X(5).
           05  CLM-BILLED-AMT         PIC S9(7)V99.
           05  CLM-ALLOWED-AMT        PIC S9(7)V99.
           05  CLM-STATUS             PIC X.
               88  CLM-ACCEPTED       VALUE 'A'.
               88  CLM-REJECTED       VALUE 'R'.
           05  CLM-REJECT-REASON      PIC X(4).
           05  FILLER                 PIC X(55).
