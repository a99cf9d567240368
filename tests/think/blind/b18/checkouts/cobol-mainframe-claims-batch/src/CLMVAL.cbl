       IDENTIFICATION DIVISION.
       PROGRAM-ID. CLMVAL.
      *----------------------------------------------------------------*
      * CLMVAL - VALIDATE INCOMING CLAIMS, WRITE ACCEPT/REJECT FILES    *
      *----------------------------------------------------------------*
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT CLAIMS-IN  ASSIGN TO CLMIN
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-IN-STATUS.
           SELECT CLAIMS-OK  ASSIGN TO CLMOK
               ORGANIZATION IS LINE SEQUENTIAL.
           SELECT CLAIMS-REJ ASSIGN TO CLMREJ
               ORGANIZATION IS LINE SEQUENTIAL.
       DATA DIVISION.
       FILE SECTION.
       FD  CLAIMS-IN.
           COPY CLMREC.
       FD  CLAIMS-OK.
       01  OK-REC                     PIC X(120).
       FD  CLAIMS-REJ.
       01  REJ-REC                    PIC X(120).
       WORKING-STORAGE SECTION.
       01  WS-IN-STATUS               PIC XX.
       01  WS-EOF                     PIC X VALUE 'N'.
           88  END-OF-CLAIMS          VALUE 'Y'.
       01  WS-COUNTS.
           05  WS-READ-CNT            PIC 9(7) VALUE 0.
           05  WS-OK-CNT              PIC 9(7) VALUE 0.
           05  WS-REJ-CNT             PIC 9(7) VALUE 0.
       PROCEDURE DIVISION.
       0000-MAIN.
           OPEN INPUT CLAIMS-IN OUTPUT CLAIMS-OK CLAIMS-REJ
           PERFORM 1000-READ
           PERFORM 2000-VALIDATE UNTIL END-OF-CLAIMS
           CLOSE CLAIMS-IN CLAIMS-OK CLAIMS-REJ
           DISPLAY 'CLMVAL READ=' WS-READ-CNT ' OK=' WS-OK-CNT
                   ' REJ=' WS-REJ-CNT
           GOBACK.
       1000-READ.
           READ CLAIMS-IN
               AT END SET END-OF-CLAIMS TO TRUE
               NOT AT END ADD 1 TO WS-READ-CNT
           END-READ.
       2000-VALIDATE.
           SET CLM-ACCEPTED TO TRUE
           MOVE SPACES TO CLM-REJECT-REASON
           PERFORM 2100-CHECK-AMOUNTS
           PERFORM 2200-CHECK-DATES
           IF CLM-ACCEPTED
               WRITE OK-REC FROM CLM-REC
               ADD 1 TO WS-OK-CNT
           ELSE
               WRITE REJ-REC FROM CLM-REC
               ADD 1 TO WS-REJ-CNT
           END-IF
           PERFORM 1000-READ.
       2100-CHECK-AMOUNTS.
           IF CLM-BILLED-AMT NOT > ZERO
               SET CLM-REJECTED TO TRUE
               MOVE 'A001' TO CLM-REJECT-REASON
           END-IF
           IF CLM-ALLOWED-AMT > CLM-BILLED-AMT
               SET CLM-REJECTED TO TRUE
               MOVE 'A002' TO CLM-REJECT-REASON
           END-IF.
       2200-CHECK-DATES.
           IF CLM-SVC-DATE = ZERO
               SET CLM-REJECTED TO TRUE
               MOVE 'D001' TO CLM-REJECT-REASON
           END-IF.
