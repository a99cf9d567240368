#include "vehiclestate.h"

VehicleState::VehicleState(QObject *parent)
    : QObject(parent)
{
}

void VehicleState::updateFromCan(double speedKmh, double odometerM)
{
    if (!qFuzzyCompare(m_speed, speedKmh)) {
        m_speed = speedKmh;
        emit speedChanged();
    }
}
