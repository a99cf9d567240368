       01  GL-ENTRY.
           05  GL-ACCOUNT             PIC X(9).
           05  GL-CCY                 PIC X(3).
           05  FILLER                 PIC X.
           05  GL-AMOUNT              PIC 9(9)V99.
           05  GL-DC                  PIC X.
               88  GL-DEBIT           VALUE 'D'.
               88  GL-CREDIT          VALUE 'C'.
           05  GL-POST-DATE           PIC 9(8).
