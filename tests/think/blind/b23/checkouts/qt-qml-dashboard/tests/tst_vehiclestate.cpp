#include <QtTest>
#include <QSignalSpy>
#include "../src/vehiclestate.h"

class tst_VehicleState : public QObject
{
    Q_OBJECT
private slots:
    void speedChangedEmittedOnce()
    {
        VehicleState state;
        QSignalSpy spy(&state, &VehicleState::speedChanged);
        state.updateFromCan(42.0, 1000.0);
        state.updateFromCan(42.0, 1010.0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(state.speed(), 42.0);
    }
};

QTEST_MAIN(tst_VehicleState)
#include "tst_vehiclestate.moc"
